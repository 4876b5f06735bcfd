/**
 * Navigation icons by the names metadata uses (screens' menu.icon, app.menuGroups[].icon).
 * Imported one by one so only these end up in the bundle. An unknown name gets a neutral icon.
 */
import type { SvgIconComponent } from '@mui/icons-material';
import Home from '@mui/icons-material/Home';
import Campaign from '@mui/icons-material/Campaign';
import Search from '@mui/icons-material/Search';
import ShoppingCart from '@mui/icons-material/ShoppingCart';
import FactCheck from '@mui/icons-material/FactCheck';
import LocalShipping from '@mui/icons-material/LocalShipping';
import Store from '@mui/icons-material/Store';
import Inventory from '@mui/icons-material/Inventory';
import Tune from '@mui/icons-material/Tune';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import ReportProblem from '@mui/icons-material/ReportProblem';
import Payments from '@mui/icons-material/Payments';
import RequestQuote from '@mui/icons-material/RequestQuote';
import Summarize from '@mui/icons-material/Summarize';
import Assessment from '@mui/icons-material/Assessment';
import Science from '@mui/icons-material/Science';
import Notifications from '@mui/icons-material/Notifications';
import Assignment from '@mui/icons-material/Assignment';
import ListAlt from '@mui/icons-material/ListAlt';
import Description from '@mui/icons-material/Description';
import SyncAlt from '@mui/icons-material/SyncAlt';
import ReceiptLong from '@mui/icons-material/ReceiptLong';
import AdminPanelSettings from '@mui/icons-material/AdminPanelSettings';
import ManageAccounts from '@mui/icons-material/ManageAccounts';

const ICONS: Record<string, SvgIconComponent> = {
  home: Home,
  notice: Notifications,
  noticeQuery: Campaign,
  order: ShoppingCart,
  orderConfirm: FactCheck,
  orderShip: LocalShipping,
  orderSearch: Search,
  dfsOrderShip: Store,
  childParts: Inventory,
  stock: Inventory,
  adjust: Tune,
  movement: SwapHoriz,
  claim: ReportProblem,
  consulting: Payments,
  feeItem: RequestQuote,
  settlement: Summarize,
  report: Assessment,
  hazard: Science,
  list: ListAlt,
  task: Assignment,
  interface: SyncAlt,
  interfaceLog: ReceiptLong,
  system: AdminPanelSettings,
  accounts: ManageAccounts,
};

export function NavIcon({ name, fontSize = 'small' }: { name?: string; fontSize?: 'small' | 'medium' | 'inherit' }) {
  const Icon = (name && ICONS[name]) || Description;
  return <Icon fontSize={fontSize} />;
}
