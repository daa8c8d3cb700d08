import { TestEnvironment } from 'jest-environment-node';
import { FAILED_FLAG } from './server';

/**
 * Node's test environment, noting on the file's global when a test or hook fails: the file's
 * server then keeps its data and log to look at (Jest tells hooks nothing about results).
 */
export default class JourneyEnvironment extends TestEnvironment {
  handleTestEvent(event: { name: string }) {
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') {
      this.global[FAILED_FLAG] = true;
    }
  }
}
