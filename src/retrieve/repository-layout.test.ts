import { afterAll, describe, expect, it } from 'vitest';
import { fixtureRepositories } from './__fixtures__/indexed-repository.js';
import { fileStem, isOutsideLibrary, repositoryLayout } from './repository-layout.js';
import { searchWithTuning } from './search-repository.js';

const { indexed, cleanUp } = fixtureRepositories('layout');
afterAll(cleanUp);

const WORK = 'def render_thumbnail(image):\n    """Render a thumbnail image."""\n    return resize_thumbnail(image, 128)\n';

describe('repositoryLayout', () => {
  it('takes the library from pyproject.toml, not from which folders have __init__.py', async () => {
    const repository = await indexed({
      'pyproject.toml': '[build-system]\nrequires = ["hatchling"]\n\n[project]\nname = "thumb-kit"\nversion = "1"\n',
      'thumb_kit/__init__.py': '',
      'thumb_kit/render.py': WORK,
      'devscripts/__init__.py': '',
      'devscripts/make_thumbnail_docs.py': WORK + WORK,
      'examples/thumbnail_demo.py': WORK + WORK,
    });
    try {
      const layout = repositoryLayout(repository.store);
      expect(layout.libraryRoots).toEqual(['thumb_kit/']);
      expect(isOutsideLibrary(layout, 'devscripts/make_thumbnail_docs.py')).toBe(true);
      expect(isOutsideLibrary(layout, 'thumb_kit/render.py')).toBe(false);
      // Code outside the library scores that factor of what it scored (default 0.7; 1 turns it off).
      const ratio = (result: Awaited<ReturnType<typeof searchWithTuning>>, path: string) =>
        result.files.find((f) => f.path === path)!.score / result.files.find((f) => f.path === 'thumb_kit/render.py')!.score;
      // The file-level boost (additive) is off here so the factor shows alone.
      const plain = await searchWithTuning(repository.store, 'render thumbnail image', { priors: { library: 1 }, fileLevel: { weight: 0 } });
      const damped = await searchWithTuning(repository.store, 'render thumbnail image', { priors: { library: 0.25 }, fileLevel: { weight: 0 } });
      for (const path of ['devscripts/make_thumbnail_docs.py', 'examples/thumbnail_demo.py']) {
        expect(ratio(damped, path)).toBeCloseTo(ratio(plain, path) * 0.25, 9);
      }
    } finally {
      repository.close();
    }
  });

  it('reads src layouts from setup.py, setuptools include globs, and package.json folders; unknown when nothing matches', async () => {
    const repository = await indexed({
      'setup.py': 'from setuptools import setup, find_packages\nsetup(name="thumb.kit", package_dir={"": "src"}, packages=find_packages("src"))\n',
      'src/thumb_kit/__init__.py': '',
      'src/thumb_kit/render.py': WORK,
      'scripts/__init__.py': '',
      'scripts/convert.py': WORK,
      'package.json': JSON.stringify({ name: 'thumb-web', exports: { '.': './web/index.js' }, files: ['web'] }),
      'web/index.js': 'export function thumbnail() { return 1; }\n',
    });
    const globs = await indexed({
      'pyproject.toml': '[project]\nname = "other"\n[tool.setuptools.packages.find]\ninclude = ["thumb*", "tools.x"]\n',
      'thumb/__init__.py': '',
      'thumbc/__init__.py': '',
      'scripts/__init__.py': '',
    });
    const unknown = await indexed({ 'a/__init__.py': '', 'a/b.py': WORK });
    try {
      expect(repositoryLayout(repository.store).libraryRoots).toEqual(['src/thumb_kit/', 'web/']);
      expect(repositoryLayout(globs.store).libraryRoots).toEqual(['thumb/', 'thumbc/']);
      const none = repositoryLayout(unknown.store);
      expect(none.libraryRoots).toEqual([]);
      expect(isOutsideLibrary(none, 'a/b.py')).toBe(false);
    } finally {
      repository.close();
      globs.close();
      unknown.close();
    }
  });

  it('counts file stems, and the file-name boost lifts the one file a query word names', async () => {
    const repository = await indexed({
      'kit/__init__.py': '',
      'kit/dropbox.py': 'def real_extract(url):\n    return fetch(url)\n',
      'kit/core.py': 'def download_video(url):\n    """Download the video from the url; video video download."""\n    return fetch(url)\n',
      'kit/a/utils.py': 'def helper():\n    return 1\n',
      'kit/b/utils.py': 'def helper():\n    return 2\n',
      'kit/c/utils.py': 'def helper():\n    return 3\n',
    });
    try {
      const layout = repositoryLayout(repository.store);
      expect(layout.stemCounts.get('utils')).toBe(3);
      expect(layout.pathsByStem.get('dropbox')).toEqual(['kit/dropbox.py']);
      expect(fileStem('a/b/Cookies.test.ts')).toBe('cookies');
      const query = 'Dropbox video download fails\nthe url download of the video fails';
      // The file-level ranking (on by default) also reads file names; off here to see this boost alone.
      const alone = { fileLevel: { weight: 0 } };
      expect((await searchWithTuning(repository.store, query, { ...alone, evidence: { fileName: { weight: 0 } } })).files[0]!.path).toBe('kit/core.py');
      expect((await searchWithTuning(repository.store, query, { ...alone, evidence: { fileName: { weight: 1 } } })).files[0]!.path).toBe('kit/dropbox.py');
      // On by default (0.3 × the best raw score).
      const dropbox = async (options: object) => (await searchWithTuning(repository.store, query, { ...alone, ...options })).files.find((f) => f.path === 'kit/dropbox.py')!.score;
      expect(await dropbox({})).toBeGreaterThan(await dropbox({ evidence: { fileName: { weight: 0 } } }));
    } finally {
      repository.close();
    }
  });
});
