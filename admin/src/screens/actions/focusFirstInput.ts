/**
 * A dialog that asks for input starts in its first input (issue 20 point 8): MUI's focus trap
 * focuses the dialog's paper when it opens, so the user had to click or Tab before typing. Called
 * when the dialog's opening transition has ended, so the trap's own focus is already done. Read-only,
 * disabled and hidden inputs are passed over (a select is its combobox, not its hidden native input); a dialog with no input keeps MUI's focus.
 * An input the user has already gone to before the transition ended keeps the focus: on a slow
 * device the transition can end while the user types in the second row, and taking the focus then
 * sent the rest of the typing into the first row (a browser test typed 14 into the second row and
 * the first row read 414).
 */
const FIRST_INPUT = ['input', 'textarea', 'select', '[role="combobox"]:not(input)']
  .map((tag) => `${tag}:not([type="hidden"]):not([type="file"]):not([disabled]):not([readonly]):not([aria-hidden="true"]):not([aria-disabled="true"])`)
  .join(', ');

export function focusFirstInput(dialog: HTMLElement): void {
  const active = dialog.ownerDocument.activeElement;
  if (active instanceof HTMLElement && dialog.contains(active) && active.matches(FIRST_INPUT)) return;
  for (const el of dialog.querySelectorAll<HTMLElement>(FIRST_INPUT)) {
    // drawn only (an input of a collapsed part has no box)
    if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    el.focus();
    return;
  }
}
