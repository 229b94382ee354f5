import { createElement, Fragment } from 'react';
import { Route } from 'react-router-dom';
import BackgroundIcon from '@mui/icons-material/Wallpaper';
import { lazyScreen } from '../common/lazyScreen';
import { loadFolderList } from '../firstScreen';
import { withNotFound } from '../common/withNotFound';

const FolderList = lazyScreen(loadFolderList, 'FolderList');
const FolderPage = lazyScreen(() => import('./FolderPage'), 'FolderPage');
const FolderCreate = lazyScreen(() => import('./FolderCreate'), 'FolderCreate');
// The upload page of a folder that is not there (or another user's) is the 404 screen too.
const UploadPage = withNotFound(lazyScreen(() => import('./UploadPage'), 'UploadPage'));

/**
 * Resource "photos" (API.backgrounds.folders): /photos (folders), /photos/{id} (the folder's grid, in the
 * edit slot), plus the SPEC paths /photos/create-folder and /photos/create/{id} as child routes (static
 * segments rank above `:id`).
 */
export default {
  list: FolderList,
  edit: FolderPage,
  icon: BackgroundIcon,
  recordRepresentation: 'name',
  children: createElement(
    Fragment,
    null,
    createElement(Route, { path: 'create-folder', element: createElement(FolderCreate) }),
    createElement(Route, { path: 'create/:id', element: createElement(UploadPage) }),
  ),
};
