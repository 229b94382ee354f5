import PolicyIcon from '@mui/icons-material/Policy';
import { lazyScreen } from '../common/lazyScreen';

const AuditList = lazyScreen(() => import('./AuditList'), 'AuditList');

export default { list: AuditList, icon: PolicyIcon };
