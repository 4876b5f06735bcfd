/** Who is calling: built from a verified token and the account row, never from client input. */
import type { Locale, Profile, Role } from '../../codegen/runtime/model.ts';

export interface Principal {
  accountId: number;
  userId: string;
  name: string;
  profile: Profile;
  accountType: string;
  role: Role;
  admin: boolean;
  /** the account's supplier code (departmentId) when the profile is supplier-scoped */
  supplierCode: string | null;
  departmentId: string;
  departmentName: string | null;
  warehouse: string;
  warehouseName: string;
  isClaimWarehouse: boolean;
  accountStatus: string;
  locale: Locale;
  tokenId: string;
  /** the session the token belongs to (kept across refreshes): logout ends all of its tokens */
  sessionId: string;
  tokenExp: number;
  /** when the user logged in (seconds): the session ends maxSessionSeconds later */
  authTime: number;
}
