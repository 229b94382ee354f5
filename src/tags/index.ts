import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { lazyScreen } from '../common/lazyScreen';
import { loadTagSetList } from '../firstScreen';

const TagSetList = lazyScreen(loadTagSetList, 'TagSetList');
const TagSetCreate = lazyScreen(() => import('./TagSetForm'), 'TagSetCreate');
const TagSetEdit = lazyScreen(() => import('./TagSetForm'), 'TagSetEdit');

export default {
  list: TagSetList,
  edit: TagSetEdit,
  create: TagSetCreate,
  icon: LocalOfferIcon,
  recordRepresentation: 'name',
};
