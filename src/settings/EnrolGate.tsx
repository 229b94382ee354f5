import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ENROL_KEY } from '../providers/authProvider';

/**
 * While an admin requires two-factor sign-in of a user who signed in without it, every screen leads to Settings,
 * where they turn it on (the card clears the mark then).
 */
export const EnrolGate = () => {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (sessionStorage.getItem(ENROL_KEY) && pathname !== '/setting') navigate('/setting', { replace: true });
  }, [pathname, navigate]);
  return null;
};
