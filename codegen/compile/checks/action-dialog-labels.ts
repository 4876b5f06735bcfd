/**
 * An action that opens a dialog (it has inputs, asks for confirmation or takes a file) must not be
 * labelled like one of the dialog's own buttons (runtime/model.ts ACTION_DIALOG_BUTTONS, and the
 * file buttons of an upload): an action "Cancel" would show "Cancel" twice, one of which cancels
 * the order and one the dialog. Compared per language, ignoring case and surrounding spaces.
 */
import { ptr } from '../../load.ts';
import { ACTION_DIALOG_BUTTONS, LOCALES, UPLOAD_DIALOG_BUTTONS } from '../../runtime/model.ts';
import type { Check } from '../run-checks.ts';

const norm = (s: string | undefined) => s?.trim().toLocaleLowerCase();

export default {
  about: "an action's label differs from the buttons of its own dialog (Cancel, Confirm, ...)",
  run({ model, err, text, hasKey, entityFile, src }) {
    for (const key of Object.values(ACTION_DIALOG_BUTTONS)) {
      if (!hasKey(key)) err('metadata/i18n', ptr(...key.split('.')), `the action dialog's button label "${key}" is missing (expected it in both languages)`);
    }
    for (const e of Object.values(model.entities)) {
      const file = entityFile(e.name);
      const rawActions = (src.entities.find((f) => f.file === file)?.data as { actions?: Record<string, { labelKey?: string }> } | undefined)?.actions ?? {};
      for (const a of Object.values(e.actions)) {
        if (a.internal) continue;
        const opensDialog = a.inputOrder.length > 0 || a.confirm || !!a.upload;
        if (!opensDialog) continue;
        const own = [...Object.values(ACTION_DIALOG_BUTTONS), ...(a.upload ? Object.values(UPLOAD_DIALOG_BUTTONS) : [])];
        const pointer = rawActions[a.name]?.labelKey ? ptr('actions', a.name, 'labelKey') : ptr('actions', a.name);
        if ((own as string[]).includes(a.labelKey)) {
          err(
            file,
            pointer,
            `action "${a.name}" uses the label key "${a.labelKey}" of its dialog's own button: give it a label of its own (e.g. "action.${e.name}.${a.name}")`,
          );
          continue;
        }
        for (const loc of LOCALES) {
          const mine = norm(text(loc, a.labelKey));
          const clash = own.find((k) => mine !== undefined && norm(text(loc, k)) === mine);
          if (clash) {
            err(
              file,
              pointer,
              `action "${a.name}" is labelled "${text(loc, a.labelKey)}" in ${loc}, like the "${clash}" button of its own dialog: name what the action does (e.g. "${text(loc, a.labelKey)} ${text(loc, e.labelKey) ?? e.name}")`,
            );
            break;
          }
        }
      }
    }
  },
} satisfies Check;
