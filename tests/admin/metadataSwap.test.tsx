/**
 * The screen definitions swapped in place by `npm run dev` (admin/src/providers/metadataSwap.ts): a
 * component that reads its screen at render time re-renders with a new column and keeps its state;
 * an edit that changes the route table (a new screen) is refused, so that the page reloads.
 */
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { EntitySchemas } from '../../codegen/runtime/field-schema.ts';
import { sessionMetadata } from '../../codegen/runtime/session-metadata.ts';
import { installMetadata, metadata } from '../../admin/src/generated/index.ts';
import { onMetadata, swapMetadata, useMetadataVersion } from '../../admin/src/providers/metadataSwap.ts';
import type { SessionMetaAnswer } from '../../admin/src/providers/sessionMetadata.ts';
import clientSchemas from '../../admin/src/generated/schemas.json';

const LIST = metadata.screens.find((s) => s.kind === 'list' && s.columns.length > 1)!;

/** Draws the list screen's column names, read at render time, and a text box whose value is state. */
function Probe() {
  useMetadataVersion();
  const [typed, setTyped] = useState('');
  const current = metadata.screens.find((s) => s.name === LIST.name)!;
  return (
    <div>
      <input data-testid="typed" value={typed} onChange={(e) => setTyped(e.target.value)} />
      <span data-testid="columns">{current.columns.map((c) => c.field).join(',')}</span>
    </div>
  );
}

/** The installed metadata with one change made to a deep copy of it, as GET /api/meta would answer. */
function edited(change: (m: CompiledMetadata) => void): SessionMetaAnswer {
  const next = structuredClone(metadata);
  change(next);
  return { ...next, schemas: clientSchemas as unknown as SessionMetaAnswer['schemas'] };
}

afterEach(cleanup);

describe('metadata swapped in place (npm run dev)', () => {
  it('a new column re-renders the screen with it, what was typed kept', () => {
    render(<Probe />);
    fireEvent.change(screen.getByTestId('typed'), { target: { value: 'PO-typed' } });
    const before = screen.getByTestId('columns').textContent!;
    const extra = { ...LIST.columns[0], field: 'devLoopColumn' };
    let swapped = false;
    act(() => {
      swapped = swapMetadata(edited((m) => m.screens.find((s) => s.name === LIST.name)!.columns.push(extra)));
    });
    expect(swapped).toBe(true);
    expect(screen.getByTestId('columns')).toHaveTextContent(`${before},devLoopColumn`);
    expect(screen.getByTestId('typed')).toHaveValue('PO-typed');
  });

  it('a new screen changes the route table: refused (the page reloads), the installed metadata kept', () => {
    const installed = metadata;
    const swapped = swapMetadata(edited((m) => m.screens.push({ ...LIST, name: 'devLoopScreen', path: '/devLoop/list' })));
    expect(swapped).toBe(false);
    expect(metadata).toBe(installed);
    expect(metadata.screens.some((s) => s.name === 'devLoopScreen')).toBe(false);
  });

  it("the dev server's model is swapped in without asking the API, and the API's later word about the same hash asks nothing", async () => {
    const [installed, installedSchemas] = [metadata, clientSchemas as unknown as Record<string, EntitySchemas>];
    // a supplier's page: its session metadata carries its own profile only
    const { schemas: sessionSchemas, ...session } = sessionMetadata(installed, installedSchemas, 'supplier');
    installMetadata(session as unknown as CompiledMetadata, sessionSchemas);
    const fetched = vi.spyOn(globalThis, 'fetch');
    try {
      render(<Probe />);
      const model = structuredClone(installed);
      model.hash = 'dev-loop-model';
      model.screens.find((s) => s.name === LIST.name)!.columns.push({ ...LIST.columns[0], field: 'devLoopModelColumn' });
      await act(() => onMetadata({ hash: model.hash, bundles: {}, model: { metadata: model } }));
      expect(screen.getByTestId('columns')).toHaveTextContent('devLoopModelColumn');
      // the session's view: still only its own profile's part of the matrix
      expect(Object.keys(metadata.access.profiles)).toEqual(['supplier']);
      await act(() => onMetadata({ hash: model.hash, bundles: {} }));
      expect(fetched).not.toHaveBeenCalled();
    } finally {
      fetched.mockRestore();
      installMetadata(installed, installedSchemas);
    }
  });
});
