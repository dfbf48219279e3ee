import { PromosPage } from '../../features/admin/promos-page.tsx';
import { SelfTestPage } from '../../features/admin/self-test-page.tsx';
import { RequireAdmin } from './guards.tsx';

/** `/promos`: admins only (seed 001 §6). */
export function PromosRoute() {
  return (
    <RequireAdmin>
      <PromosPage />
    </RequireAdmin>
  );
}

/** `/admin`: the self-test panel, admins of either account kind (seed 000 §6). */
export function AdminRoute() {
  return (
    <RequireAdmin>
      <SelfTestPage />
    </RequireAdmin>
  );
}
