import type { BackgroundsService } from './backgrounds.service';

export type { FolderItemForRender } from './backgrounds.service';
export { backgroundsRoutes } from './backgrounds.routes';

/**
 * What create-video and the render worker use of the backgrounds: the items of folders a scope may use
 * (with a local path ffmpeg can read), and which folders exist within a scope.
 */
export type BackgroundLibrary = Pick<BackgroundsService, 'listFolderItems' | 'visibleFolderIds'>;
