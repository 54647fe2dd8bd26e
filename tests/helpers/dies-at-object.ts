/**
 * Preloaded into a publisher process (node --import tsx --import ./tests/helpers/dies-at-object.ts …): the
 * process kills itself (SIGKILL: no clean-up, no lease released, as a power cut would) when its S3 client is about
 * to PUT the object DIE_AT_KEY, so the objects written before it are stored and that one is not.
 * The client is the product's own (api/publish/page-bucket.ts keeps one per settings, and these are the process's settings).
 */
import { loadPageTargetSettings } from '../../api/config.ts';
import { pageBucketOf } from '../../api/publish/page-bucket.ts';

const key = process.env.DIE_AT_KEY;
const bucket = pageBucketOf(loadPageTargetSettings(process.env));
if (key && bucket) {
  bucket.client.middlewareStack.add((next, context) => async (args) => {
    if (context.commandName === 'PutObjectCommand' && (args.input as { Key?: string }).Key === key) process.kill(process.pid, 'SIGKILL');
    return next(args);
  }, { step: 'initialize', name: 'dieAtObject' });
}
