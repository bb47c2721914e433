import { ClipboardList } from 'lucide-react';
import { UnavailableScreen } from '../../components/layout/unavailable-screen.tsx';

/** /orders: the list of orders. */
export function OrdersPage() {
  return (
    <UnavailableScreen title="Orders" icon={ClipboardList} message="The order list is not available yet." />
  );
}
