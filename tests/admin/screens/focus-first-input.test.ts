/**
 * An action dialog starts in its first input once its opening transition has ended, unless the
 * user has already gone to an input of the dialog by then: that focus is kept, so typing is never
 * split between two rows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { focusFirstInput } from '../../../admin/src/screens/actions/focusFirstInput.ts';

function dialogWithTwoRows(): { dialog: HTMLElement; first: HTMLInputElement; second: HTMLInputElement } {
  const dialog = document.createElement('div');
  dialog.setAttribute('role', 'dialog');
  dialog.tabIndex = -1;
  dialog.innerHTML = '<input type="hidden" name="id"><input readonly value="P1"><input name="row1" value="4"><input name="row2" value="15">';
  document.body.append(dialog);
  // jsdom lays nothing out: every element gets one rectangle, as a drawn element would
  for (const el of dialog.querySelectorAll('input')) el.getClientRects = () => [{}] as unknown as DOMRectList;
  const [first, second] = [dialog.querySelector<HTMLInputElement>('[name="row1"]')!, dialog.querySelector<HTMLInputElement>('[name="row2"]')!];
  return { dialog, first, second };
}

afterEach(() => document.body.replaceChildren());

describe('focusFirstInput', () => {
  it('moves the focus from the dialog itself (where MUI puts it) to the first input that takes typing', () => {
    const { dialog, first } = dialogWithTwoRows();
    dialog.focus();
    focusFirstInput(dialog);
    expect(document.activeElement).toBe(first);
  });

  it('leaves the focus in an input the user went to before the transition ended', () => {
    const { dialog, second } = dialogWithTwoRows();
    second.focus();
    focusFirstInput(dialog);
    expect(document.activeElement).toBe(second);
  });

  it('takes the focus from a button of the dialog (nothing is being typed there)', () => {
    const { dialog, first } = dialogWithTwoRows();
    const button = document.createElement('button');
    dialog.append(button);
    button.focus();
    focusFirstInput(dialog);
    expect(document.activeElement).toBe(first);
  });
});
