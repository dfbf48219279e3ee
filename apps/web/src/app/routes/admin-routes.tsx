import { PromosPage } from '../../features/admin/promos-page.tsx';
import { SelfTestPage } from '../../features/admin/self-test-page.tsx';
import { RequireAdmin } from './guards.tsx';

/** `/promos`: admins only (decision 042). */
export function PromosRoute() {
  return (
    <RequireAdmin>
      <PromosPage />
    </RequireAdmin>
  );
}

/** `/admin`: the self-test panel, admins of either account kind (decision 042). */
export function AdminRoute() {
  return (
    <RequireAdmin>
      <SelfTestPage />
    </RequireAdmin>
  );
}
