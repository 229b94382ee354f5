import '../common/zodWithoutEval';
import { zodResolver } from '@hookform/resolvers/zod';
import { LoginSchema } from '../contract/auth';

/** The login form's rules (SPEC §5) as a form resolver; zod loads with it, on the first check, not with the page. */
export const loginResolver = zodResolver(LoginSchema);
