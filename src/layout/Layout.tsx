import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { Menu } from './Menu';
import { LiveUpdates } from '../live/LiveUpdates';
import { MuiTexts } from './MuiTexts';
import { EnrolGate } from '../settings/EnrolGate';

export const Layout = ({ children }: { children: ReactNode }) => (
  <MuiTexts>
    <RaLayout appBar={AppBar} menu={Menu}>
      <LiveUpdates />
      <EnrolGate />
      {children}
    </RaLayout>
  </MuiTexts>
);
