/**
 * Turning two-step verification on (TotpEnrolDialog): the personal-info dialog learns that it is on
 * even when "Done" is pressed before the user info asked again after enabling has arrived (a quick
 * user, a loaded server). It used to be told "off" then: the browser test's flake of issue 34.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdminContext, memoryStore, type I18nProvider } from 'react-admin';
import { TotpEnrolDialog } from '../../admin/src/auth/TwoStepVerification.tsx';
import type { UserMfa } from '../../admin/src/auth/mfa.ts';
import { createI18nProvider, preloadMessages } from '../../admin/src/providers/i18nProvider.ts';
import { setToken } from '../../admin/src/providers/storage.ts';
import { mockFetch, resetBrowserState, supplierUser } from './helpers.ts';

let i18n: I18nProvider;
beforeAll(async () => {
  await preloadMessages('en-US');
  i18n = createI18nProvider('en-US');
});
afterEach(() => {
  cleanup();
  resetBrowserState();
});

const mfaOn: UserMfa = { enabled: true, required: false, enrolledAt: '2026-11-29T10:00:00Z', recoveryCodesLeft: 10 } as UserMfa;
const codes = Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-cccc-dddd-eeee-000${i}`);

describe('TotpEnrolDialog', () => {
  it('"Done" before the user info came back still reports two-step verification on', async () => {
    setToken('t');
    let answerInfo: () => void = () => undefined;
    const infoAsked = new Promise<void>((resolve) => {
      mockFetch(async (call) => {
        if (call.url.endsWith('/totp/setup'))
          return { json: { status: 200, data: { secret: 'A'.repeat(32), uri: 'otpauth://totp/x?secret=A', qrCode: 'data:image/png;base64,' } } };
        if (call.url.endsWith('/totp/enable')) return { json: { status: 200, message: 'on', data: { recoveryCodes: codes } } };
        if (call.url.endsWith('/accountInfo/info')) {
          resolve();
          // the answer waits until the test lets it go: "Done" is pressed first
          await new Promise<void>((go) => (answerInfo = go));
          return { json: { status: 200, data: { user: { ...supplierUser, mfa: mfaOn }, serverTime: '2026-11-29T10:00:00Z' } } };
        }
        return { status: 404, json: {} };
      });
    });
    const onEnabled = vi.fn();
    const onClose = vi.fn();
    render(
      <AdminContext i18nProvider={i18n} store={memoryStore()}>
        <TotpEnrolDialog open forced={false} onClose={onClose} onEnabled={onEnabled} />
      </AdminContext>,
    );
    fireEvent.change(screen.getByTestId('totp-password'), { target: { value: 'demo2026A' } });
    fireEvent.click(screen.getByTestId('totp-next'));
    await waitFor(() => expect(screen.getByTestId('totp-enrol-dialog')).toHaveAttribute('data-step', 'scan'));
    fireEvent.change(screen.getByTestId('totp-code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByTestId('totp-confirm'));
    await waitFor(() => expect(screen.getAllByTestId('totp-recovery-code')).toHaveLength(10));
    await infoAsked;
    fireEvent.click(screen.getByTestId('totp-done'));
    // nothing is reported while the answer is outstanding, and then what it says
    expect(onEnabled).not.toHaveBeenCalled();
    await act(async () => answerInfo());
    await waitFor(() => expect(onEnabled).toHaveBeenCalledTimes(1));
    expect(onEnabled.mock.calls[0][0]).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    expect(onClose).toHaveBeenCalled();
  });
});
