import { createElement } from 'react';
import { Route } from 'react-router-dom';
import AccountsIcon from '@mui/icons-material/AccountBox';
import { lazyScreen } from '../common/lazyScreen';
import { loadAccountList } from '../firstScreen';

const AccountList = lazyScreen(loadAccountList, 'AccountList');
const AccountEdit = lazyScreen(() => import('./AccountEdit'), 'AccountEdit');
const AccountCreate = lazyScreen(() => import('./AccountCreate'), 'AccountCreate');

/** Profiles: /accounts and /accounts/list (the list), /accounts/create, /accounts/{id}. */
export default {
  list: AccountList,
  edit: AccountEdit,
  create: AccountCreate,
  icon: AccountsIcon,
  recordRepresentation: 'name',
  children: createElement(Route, { path: 'list', element: createElement(AccountList) }),
};
