// The local S3 server of `npm run bench -- storage` in a process of its own, so the objects it keeps in memory
// (a 1 GB one among them) never count in the measured process. Sends its endpoint to the parent, stops when
// the parent goes.
import { startS3Server } from '../tests/helpers/s3-server';

const server = await startS3Server();
process.send!({ endpoint: server.endpoint });
process.on('disconnect', () => {
  void server.stop().then(() => process.exit(0));
});
