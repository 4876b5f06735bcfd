/** The notice centre: active notices with their attachments; 'No Announcement!' when there is none. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { GetListParams } from 'react-admin';
import { metadata } from '../../../admin/src/generated/index.ts';
import { screenTestLifecycle } from './screenTest.ts';
import { msg, renderScreen, screenWhere } from './renderScreen.tsx';

const dashboard = screenWhere((s) => s.component === 'NoticeCentre');

const i18n = screenTestLifecycle(() => import('../../../admin/src/custom/NoticeCentre.tsx'));

function mount(notices: Record<string, unknown>[], attachments: Record<string, unknown>[]) {
  const getList = vi.fn(async (res: string, p: GetListParams) => {
    const rows = res === 'notices' ? notices : attachments.filter((a) => a.noticeId === p.filter.noticeId);
    return { data: rows, total: rows.length };
  });
  const download = vi.fn(async () => ({ data: {} }));
  renderScreen(dashboard, i18n(), getList, { download });
  return { getList, download };
}

describe('NoticeCentre', () => {
  it("says 'No Announcement!' when there is no active notice", async () => {
    mount([], []);
    expect(await screen.findByTestId('no-announcement')).toHaveTextContent(msg['message.noAnnouncement']);
  });

  it('lists active notices newest first; the open one shows its attachments with a download', async () => {
    const notices = [
      { id: 2, title: 'Second', content: 'Body two', status: '0', publishedAt: '2026-11-02T01:00:00Z', createdAt: '2026-11-02T01:00:00Z' },
      { id: 1, title: 'First', content: 'Body one', status: '0', publishedAt: '2026-11-01T01:00:00Z', createdAt: '2026-11-01T01:00:00Z' },
    ];
    const attachments = [{ id: 7, noticeId: 2, fileName: 'plan.pdf', fileSize: 2048, uploader: '王芳', uploadedAt: '2026-11-02T02:00:00Z' }];
    const { getList, download } = mount(notices, attachments);
    const items = await screen.findAllByTestId('notice-item');
    expect(items.map((i) => within(i).getByTestId('notice-title').textContent)).toEqual(['Second', 'First']);
    const active = metadata.codeTables.noticeStatus.values.find((v) => v.key === 'active')!.code;
    expect(getList.mock.calls.find(([r]) => r === 'notices')![1].filter).toEqual({ status: active });
    const row = await within(items[0]).findByTestId('lean-row');
    expect(row).toHaveTextContent('plan.pdf');
    expect(row).toHaveTextContent('2.0 KB');
    expect(row).toHaveTextContent('王芳');
    for (const c of dashboard.related[0].columns) expect(within(items[0]).getByTestId(`lean-th-${c.field}`)).toHaveTextContent(msg[c.labelKey]);
    fireEvent.click(within(row).getByTestId('lean-row-action-download'));
    await waitFor(() => expect(download).toHaveBeenCalledWith('notice-attachments', 7));
  });
});
