/**
 * `npm run dev`'s text swap re-renders only the components that translate
 * (admin/src/providers/LiveTexts.tsx): below the provider given to react-admin, a component that
 * translates shows the new label, while a component between it and the root that does not
 * translate is not rendered again, and what was typed is kept.
 */
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { I18nContextProvider, useTranslate } from 'react-admin';
import { loadMessages } from '../../admin/src/generated/index.ts';
import { createI18nProvider, preloadMessages, swapMessages } from '../../admin/src/providers/i18nProvider.ts';
import { LiveTexts } from '../../admin/src/providers/LiveTexts.tsx';

const betweenRendered = vi.fn();

function Title() {
  const translate = useTranslate();
  const [typed, setTyped] = useState('');
  return (
    <div>
      <h1 data-testid="title">{translate('route.orderShip')}</h1>
      <input data-testid="typed" value={typed} onChange={(e) => setTyped(e.target.value)} />
    </div>
  );
}

/** Translates nothing: a text swap has no reason to render it again. */
function Between() {
  betweenRendered();
  return <Title />;
}

afterEach(cleanup);

describe('texts swapped in place (npm run dev)', () => {
  it('re-renders the components that translate, not the ones between them and the root', async () => {
    await preloadMessages('zh-CN');
    const provider = createI18nProvider('zh-CN');
    render(
      <I18nContextProvider value={provider}>
        <LiveTexts>
          <Between />
        </LiveTexts>
      </I18nContextProvider>,
    );
    const before = screen.getByTestId('title').textContent;
    fireEvent.change(screen.getByTestId('typed'), { target: { value: 'typed before' } });
    const rendered = betweenRendered.mock.calls.length;
    const zh = { ...(await loadMessages['zh-CN']()), 'route.orderShip': '订单发货（新）' };
    try {
      await act(() => swapMessages({ 'zh-CN': zh }));
      expect(before).not.toBe('订单发货（新）');
      expect(screen.getByTestId('title')).toHaveTextContent('订单发货（新）');
      expect(screen.getByTestId('typed')).toHaveValue('typed before');
      expect(betweenRendered).toHaveBeenCalledTimes(rendered);
    } finally {
      // back to the generated texts for the other tests
      const generated = await loadMessages['zh-CN']();
      await act(() => swapMessages({ 'zh-CN': generated }));
    }
  });
});
