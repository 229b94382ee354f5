import PeopleIcon from '@mui/icons-material/ManageAccounts';
import { lazyScreen } from '../common/lazyScreen';
import { loadUserList } from '../firstScreen';

// The users list shows the core part of the messages only (i18n/panelParts.ts): its page loads no other.
const UserList = lazyScreen(loadUserList, 'UserList', { coreOnly: true });
const UserEdit = lazyScreen(() => import('./UserEdit'), 'UserEdit');
const UserCreate = lazyScreen(() => import('./UserCreate'), 'UserCreate');

export default { list: UserList, edit: UserEdit, create: UserCreate, icon: PeopleIcon, recordRepresentation: 'login' };
