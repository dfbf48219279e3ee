import { PromosPage } from '../../features/admin/promos-page.tsx';
import { SelfTestPage } from '../../features/admin/self-test-page.tsx';
import { RequireAdmin } from './guards.tsx';

/** `/promos`: admins only (the subscription seed spec). */
export function PromosRoute() {
  return (
    <RequireAdmin>
      <PromosPage />
    </RequireAdmin>
  );
}

/** `/admin`: the self-test panel, admins of either account kind (the seed spec). */
export function AdminRoute() {
  return (
    <RequireAdmin>
      <SelfTestPage />
    </RequireAdmin>
  );
}
