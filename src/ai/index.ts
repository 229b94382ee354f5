import { createElement } from 'react';
import { Route } from 'react-router-dom';
import { lazyScreen } from '../common/lazyScreen';
import { loadAiSessionList, loadAiVideoList, loadAiLogList } from '../firstScreen';

const AiSessionList = lazyScreen(loadAiSessionList, 'AiSessionList');
const AiSessionPage = lazyScreen(() => import('./AiSessionPage'), 'AiSessionPage');
const AiVideoList = lazyScreen(loadAiVideoList, 'AiVideoList');
const AiLogList = lazyScreen(loadAiLogList, 'AiLogList');

/**
 * The AI screens at the SPEC §2 paths: /ai/list (sessions), /ai/list/{id}?chat=gpt|deepseek (a session),
 * /ai/video (AI videos), /ai/logs. They read the AI service through its own client (src/providers/aiClient.ts).
 */
export const aiRoutes = [
  createElement(Route, { key: 'ai-list', path: '/ai/list', element: createElement(AiSessionList) }),
  createElement(Route, { key: 'ai-session', path: '/ai/list/:id', element: createElement(AiSessionPage) }),
  createElement(Route, { key: 'ai-video', path: '/ai/video', element: createElement(AiVideoList) }),
  createElement(Route, { key: 'ai-logs', path: '/ai/logs', element: createElement(AiLogList) }),
];
