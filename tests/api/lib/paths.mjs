// Where things are: the repository root, the API document, and the output folder of these tests.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const documentPath = join(repoRoot, 'docs/openapi.json');
export const outputDir = process.env.PETSTORE_API_TEST_OUTPUT ?? join(repoRoot, 'build/api-test-output');
