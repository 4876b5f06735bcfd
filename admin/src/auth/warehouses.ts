/** The public warehouse (PDC) list of the login form and the header: GET /api/warehouses. */
import { useQuery } from '@tanstack/react-query';
import { httpClient } from '../providers/httpClient.ts';

export interface Warehouse {
  code: string;
  nameZh?: string | null;
  nameEn?: string | null;
  isClaimWarehouse?: boolean;
}

export const warehouseLabel = (w: Warehouse, locale: string): string => {
  const name = locale.startsWith('zh') ? w.nameZh || w.nameEn : w.nameEn || w.nameZh;
  return name ? `${w.code} ${name}` : w.code;
};

export async function fetchWarehouses(): Promise<Warehouse[]> {
  const { json } = await httpClient(`/api/warehouses?sort=${encodeURIComponent('["code","ASC"]')}`, { anonymous: true, skipAuthDialog: true });
  return Array.isArray(json) ? (json as Warehouse[]) : [];
}

export function useWarehouses(): { warehouses: Warehouse[]; isPending: boolean; error: Error | null } {
  const q = useQuery({ queryKey: ['portal', 'warehouses'], queryFn: fetchWarehouses, staleTime: 5 * 60_000, retry: 1 });
  return { warehouses: q.data ?? [], isPending: q.isPending, error: q.error };
}
