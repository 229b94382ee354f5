import { createRoot } from 'react-dom/client';
import { Admin, DataTable, List, Resource, type AuthProvider, type DataProvider } from 'react-admin';

/**
 * The floor of the cold-page bench: the smallest react-admin app that does what `/login` and `/users` do (a sign-in
 * page; a list of users from an API), built the way react-admin's tutorial builds one (Vite's defaults, react-admin's
 * own English messages, sign-in page, layout and theme). Same React, MUI and react-admin as the panel.
 */
const session = () => localStorage.getItem('authStore');

const authProvider: AuthProvider = {
  login: async ({ username, password }) => {
    const res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login: username, password }),
    });
    if (!res.ok) throw new Error('Sign-in refused');
    localStorage.setItem('authStore', await res.text());
  },
  logout: async () => localStorage.removeItem('authStore'),
  checkAuth: async () => {
    if (!session()) throw new Error('Signed out');
  },
  checkError: async () => undefined,
};

const unsupported = () => Promise.reject(new Error('Not in the floor app'));
const dataProvider = {
  getList: async (resource: string, { pagination }: { pagination: { page: number } }) => {
    const res = await fetch(`/api/${resource}?page=${pagination.page}`);
    return (await res.json()) as { data: never[]; total: number };
  },
  getOne: unsupported,
  getMany: unsupported,
  getManyReference: unsupported,
  create: unsupported,
  update: unsupported,
  updateMany: unsupported,
  delete: unsupported,
  deleteMany: unsupported,
} as unknown as DataProvider;

const UserList = () => (
  <List>
    <DataTable>
      <DataTable.Col source="id" />
      <DataTable.Col source="login" />
      <DataTable.Col source="role" />
    </DataTable>
  </List>
);

createRoot(document.getElementById('root')!).render(
  <Admin authProvider={authProvider} dataProvider={dataProvider} requireAuth disableTelemetry>
    <Resource name="users" list={UserList} />
  </Admin>,
);
