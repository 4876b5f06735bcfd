/** Screens of kind "auth" (the sign-in flow's pages: forgot / reset password) are public and name the component that draws them. */
import type { Check } from '../run-checks.ts';

export default {
  about: 'a screen of kind "auth" is public and names its component',
  run({ model, err, screenAt }) {
    for (const s of model.screens) {
      if (s.kind !== 'auth') continue;
      const { file, base } = screenAt(s.name);
      // the sign-in flow's pages are for people who cannot log in
      if (!s.public) err(file, `${base}/public`, `screen "${s.name}" of kind "auth" must be public`);
      if (!s.component) err(file, `${base}/component`, `screen "${s.name}" of kind "auth" needs the component that draws it`);
    }
  },
} satisfies Check;
