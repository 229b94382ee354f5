import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { lazyScreen } from '../common/lazyScreen';

const TagSetList = lazyScreen(() => import('./TagSetList'), 'TagSetList');
const TagSetCreate = lazyScreen(() => import('./TagSetForm'), 'TagSetCreate');
const TagSetEdit = lazyScreen(() => import('./TagSetForm'), 'TagSetEdit');

export default {
  list: TagSetList,
  edit: TagSetEdit,
  create: TagSetCreate,
  icon: LocalOfferIcon,
  recordRepresentation: 'name',
};
