/** Screens that name other screens (editScreen, listScreen) or routes (activeMenu) name existing ones. */
import type { Check } from '../run-checks.ts';

export default {
  about: 'editScreen, listScreen and activeMenu of a screen name an existing screen or route',
  run({ model, unknown, screenAt }) {
    const names = model.screens.map((s) => s.name);
    const paths = model.screens.map((s) => s.path);
    for (const s of model.screens) {
      const { file, base } = screenAt(s.name);
      if (s.editScreen && !names.includes(s.editScreen)) unknown(file, `${base}/editScreen`, 'screen', s.editScreen, names);
      if (s.listScreen && !names.includes(s.listScreen)) unknown(file, `${base}/listScreen`, 'screen', s.listScreen, names);
      if (s.activeMenu && !paths.includes(s.activeMenu)) unknown(file, `${base}/activeMenu`, 'route path', s.activeMenu, paths);
    }
  },
} satisfies Check;
