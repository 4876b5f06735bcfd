/**
 * MUI's CSS-variables theming (admin/leanModules.ts puts this module in place of
 * `@mui/material/esm/styles/createThemeWithVars.js` and `ThemeProviderWithVars.js`): MUI's
 * `createTheme` and `ThemeProvider` import it for themes that ask for CSS variables or colour
 * schemes, about 30 kB of plain script in the sign-in page's first script. The portal's themes
 * (layout/theme.ts, through react-admin's ThemeProvider) ask for neither, so MUI takes its plain
 * path and never calls these; tests/admin/leanModules.test.tsx checks that the themes stay so.
 * Called anyway, they say why instead of theming half the page.
 */
const refused = (what: string) => (): never => {
  throw new Error(`${what}: the portal's MUI themes use no CSS variables or colour schemes (admin/leanModules.ts)`);
};

export default refused('createThemeWithVars');
export const createGetCssVar = refused('createGetCssVar');
export const CssVarsProvider = refused('CssVarsProvider');
export const Experimental_CssVarsProvider = refused('Experimental_CssVarsProvider');
export const useColorScheme = refused('useColorScheme');
export const getInitColorSchemeScript = refused('getInitColorSchemeScript');
