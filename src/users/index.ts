import PeopleIcon from '@mui/icons-material/ManageAccounts';
import { lazyScreen } from '../common/lazyScreen';
import { loadUserList } from '../firstScreen';

const UserList = lazyScreen(loadUserList, 'UserList');
const UserEdit = lazyScreen(() => import('./UserEdit'), 'UserEdit');
const UserCreate = lazyScreen(() => import('./UserCreate'), 'UserCreate');

export default { list: UserList, edit: UserEdit, create: UserCreate, icon: PeopleIcon, recordRepresentation: 'login' };
