import { useLogin } from 'ra-core';
import { LoginPage } from './LoginPage';

/** The login page inside react-admin (after a logout): signs in through the authProvider and redirects. */
export const AdminLoginPage = () => {
  const login = useLogin();
  return <LoginPage onSubmit={(values) => login(values)} />;
};
