import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useMustEnrol } from '../providers/enrolment';

/**
 * While an admin requires two-factor sign-in of a user who has not turned it on, every screen leads to Settings,
 * where they turn it on (the card clears the mark then). The mark comes from the sign-in answer or from any call
 * the server refused for it (providers/enrolment.ts).
 */
export const EnrolGate = () => {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const enrol = useMustEnrol();
  useEffect(() => {
    if (enrol && pathname !== '/setting') navigate('/setting', { replace: true });
  }, [enrol, pathname, navigate]);
  return null;
};
