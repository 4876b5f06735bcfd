/**
 * Actions that take a file (metadata `upload`, e.g. importing fee items from Excel) travel as
 * multipart: the input fields, then one part named `file` (server/routes/resources.ts actionBody).
 * The dataProvider's runAction sends JSON only, so these two calls go through the same HTTP layer
 * (token, language, errors) directly. The import template is GET .../actions/<a>/template.
 */
import type { Identifier } from 'react-admin';
import { fetchRaw, isFileResponse, readFile, saveFile } from '../../providers/httpClient.ts';

const API = '/api';
const enc = encodeURIComponent;

export async function runUploadAction(
  resource: string,
  params: { id?: Identifier; action: string; data: Record<string, unknown>; file: File },
): Promise<{ data: unknown; message?: string }> {
  const single = params.id !== undefined && params.id !== null;
  const url = single ? `${API}/${resource}/${enc(String(params.id))}/actions/${enc(params.action)}` : `${API}/${resource}/actions/${enc(params.action)}`;
  const form = new FormData();
  // fields first: the server reads them before it streams the file part
  for (const [k, v] of Object.entries(params.data)) if (v !== undefined && v !== null) form.append(k, String(v));
  form.append('file', params.file, params.file.name);
  const res = await fetchRaw(url, { method: 'POST', body: form, headers: { Accept: 'application/json, */*' } });
  if (isFileResponse(res)) {
    saveFile(await readFile(res));
    return { data: null };
  }
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  return json && typeof json === 'object' && 'data' in json ? { data: json.data, message: json.message } : { data: json };
}

export async function downloadTemplate(resource: string, action: string): Promise<void> {
  const res = await fetchRaw(`${API}/${resource}/actions/${enc(action)}/template`, { headers: { Accept: '*/*' } });
  saveFile(await readFile(res));
}
