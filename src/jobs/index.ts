import PendingActionsIcon from '@mui/icons-material/PendingActions';
import { lazyScreen } from '../common/lazyScreen';

const JobList = lazyScreen(() => import('./JobList'), 'JobList');

export default { list: JobList, icon: PendingActionsIcon };
