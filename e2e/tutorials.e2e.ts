// Journeys of issue 11 (tutorials): an ADMIN builds a module, gives it a quiz with options and a content item,
// opens the quiz form over the quiz list (both in view, Escape closes the top one), translates the content in the
// language setting modal (the device read then serves the translation), and
// reorders two modules by dragging one onto the other (then puts them back with Move up); screenshots at desktop
// and phone width; a role without the menu entry is refused by the API too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { TUTORIAL_MESSAGES } from '@sc/shared/tutorials';
import { baseUrl, launch, newPage, settled, snap } from './browser.ts';
import { apiAs, checkA11y, pickOption, signInByEmail, tokenFor } from './helpers.ts';

type Paged<T> = { count: number; results: T[] };
type Module = { id: number; name: string; z_order: number };
type Content = { id: number; title: string; primary_image: string | null; localize: Record<string, { title?: string }> };

let browser: Browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

async function rowAction(page: Page, label: string, action: string): Promise<void> {
  await page.getByRole('button', { name: label }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('Tutorials', () => {
  it('builds a module with a quiz and a translated content item (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    await page.goto('/tutorial/module');
    await page.getByTestId('module-table').getByRole('row').nth(1).waitFor();
    await checkA11y(page, 'Module list');
    await snap(page, 'tutorial-modules-admin-1400');

    const name = `E2E module ${Date.now() % 100000}`;
    await page.getByTestId('module-create').click();
    const moduleForm = page.getByRole('dialog', { name: 'Create Module' });
    await moduleForm.getByTestId('module-save').waitFor();
    await moduleForm.getByTestId('module-name').fill(name);
    await moduleForm.getByTestId('module-pass_text').fill('You passed.');
    await moduleForm.getByTestId('module-save').click();
    await page.getByText(TUTORIAL_MESSAGES.moduleCreated).waitFor();

    await page.goto(`/tutorial/module?search=${encodeURIComponent(name)}`);
    await rowAction(page, `Actions for module ${name}`, 'Quiz');
    const quizList = page.getByRole('dialog', { name: `Quiz – ${name}` });
    await quizList.getByText(TUTORIAL_MESSAGES.emptyQuizzes).waitFor();
    await quizList.getByTestId('quiz-create').click();
    const quizForm = page.getByRole('dialog', { name: 'Create Quiz' });
    await quizForm.getByTestId('quiz-save').waitFor();
    await quizForm.getByTestId('quiz-question').fill('Is the scan painless?');
    await quizForm.getByTestId('option-add').click();
    await quizForm.getByTestId('option-text-0').fill('Yes');
    await quizForm.getByTestId('option-correct-0').check();
    await quizForm.getByTestId('option-add').click();
    await quizForm.getByTestId('option-text-1').fill('No');
    await snap(page, 'tutorial-quiz-form-admin-1400');
    await quizForm.getByTestId('quiz-save').click();
    await page.getByText(TUTORIAL_MESSAGES.quizCreated).waitFor();
    await quizList.getByText('Is the scan painless?').waitFor();
    // The quiz form opens over the list, which stays in view behind it; Escape closes the form only.
    await rowAction(page, 'Actions for quiz Is the scan painless?', 'Details');
    const quizDetails = page.getByRole('dialog', { name: 'Quiz details' });
    await quizDetails.getByTestId('quiz-edit').waitFor();
    await settled(page);
    expect(await quizList.isVisible()).toBe(true);
    expect(await quizList.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    expect(await quizDetails.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await snap(page, 'tutorial-quiz-stacked-admin-1400');
    await page.keyboard.press('Escape');
    await quizDetails.waitFor({ state: 'detached' });
    await quizList.getByText('Is the scan painless?').waitFor();
    await page.keyboard.press('Escape');
    await quizList.waitFor({ state: 'detached' });

    await rowAction(page, `Actions for module ${name}`, 'Content');
    await page.waitForURL(/\/tutorial\/module\/content\?id=\d+/);
    const moduleId = Number(new URL(page.url()).searchParams.get('id'));
    await page.getByTestId('content-module-name').getByText(name).waitFor();
    await page.getByText(TUTORIAL_MESSAGES.emptyContents).waitFor();
    await page.getByTestId('content-create').click();
    const contentForm = page.getByRole('dialog', { name: 'Create Content' });
    await contentForm.getByTestId('content-save').waitFor();
    await contentForm.getByTestId('content-title').fill('Welcome video');
    await contentForm.getByTestId('content-primary_text').fill('Watch this before your first scan.');
    await contentForm.getByTestId('content-video').fill('welcome video');
    await contentForm.getByTestId('content-save').click();
    await contentForm.getByText(TUTORIAL_MESSAGES.invalidChars).waitFor();
    await contentForm.getByTestId('content-video').fill('welcome_video');
    await contentForm.getByTestId('content-save').click();
    await page.getByText(TUTORIAL_MESSAGES.contentCreated).waitFor();
    await page.getByTestId('content-table').getByText('Welcome video').waitFor();

    await rowAction(page, 'Actions for content Welcome video', 'Language setting');
    const languages = page.getByRole('dialog', { name: 'Language setting – Welcome video' });
    await languages.getByTestId('language-add').click();
    await pickOption(page, 'language-select-0', 'Fre', 'French');
    await languages.getByTestId('language-title-0').fill('Vidéo de bienvenue');
    await languages.getByTestId('language-primary_text-0').fill('Regardez ceci avant votre premier examen.');
    await checkA11y(page, 'Language setting');
    await snap(page, 'tutorial-language-admin-1400');
    await languages.getByTestId('language-submit').click();
    await page.getByText(TUTORIAL_MESSAGES.contentUpdated).waitFor();
    await snap(page, 'tutorial-contents-admin-1400');

    const contents = await apiAs<Paged<Content>>(page, `tutorial/content/?module=${moduleId}`);
    const module = await apiAs<Module>(page, `tutorial/module/${moduleId}/`);
    expect(contents.results).toMatchObject([
      {
        title: 'Welcome video',
        primary_image: `assets/tutorials/tutorial_module_${module.z_order}/welcome_video.mp4`,
        localize: { fr: { title: 'Vidéo de bienvenue' } },
      },
    ]);
    // The device read serves the translation in French and the English text otherwise.
    const technician = await tokenFor('technician@demo.test');
    const read = async (language: string) => {
      const r = await fetch(`${baseUrl()}/api/v1/tutorial/app/?language=${language}`, {
        headers: { Authorization: `Token ${technician}` },
      });
      const tree = (await r.json()) as { modules: { id: number; contents: { title: string }[] }[] };
      return tree.modules.find((m) => m.id === moduleId)?.contents[0]?.title;
    };
    expect(await read('fr')).toBe('Vidéo de bienvenue');
    expect(await read('hi')).toBe('Welcome video');
    // The module list is administrative: the API refuses a technician.
    const refused = await fetch(`${baseUrl()}/api/v1/tutorial/module/`, { headers: { Authorization: `Token ${technician}` } });
    expect(refused.status).toBe(403);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/tutorial/module/content?id=${moduleId}`);
    await page.getByTestId('content-table').getByText('Welcome video').waitFor();
    await snap(page, 'tutorial-contents-admin-390');
    await context.close();
  });

  it('reorders two modules by drag and drop, then back with Move up (ADMIN)', async () => {
    const { context, page } = await newPage(browser);
    await signInByEmail(page, 'admin@demo.test');
    const before = (await apiAs<Paged<Module>>(page, 'tutorial/module/?limit=100')).results;
    const [first, second] = before;
    if (!first || !second) throw new Error('the demo data needs two modules');
    await page.goto('/tutorial/module');
    await page.getByTestId(`module-name-${second.id}`).waitFor();
    await page.getByTestId(`drag-${second.id}`).dragTo(page.getByTestId(`module-name-${first.id}`));
    await page.getByText(TUTORIAL_MESSAGES.orderSaved).first().waitFor();
    const after = (await apiAs<Paged<Module>>(page, 'tutorial/module/?limit=100')).results;
    expect(after.slice(0, 2).map((m) => m.id)).toEqual([second.id, first.id]);
    expect(after.map((m) => m.z_order)).toEqual(after.map((_, i) => i + 1));
    // The table shows the new order.
    const rows = page.getByTestId('module-table').getByRole('row');
    await rows.nth(1).getByText(second.name).waitFor();
    await snap(page, 'tutorial-modules-reordered-admin-1400');

    await rowAction(page, `Actions for module ${first.name}`, 'Move up');
    await rows.nth(1).getByText(first.name).waitFor();
    const restored = (await apiAs<Paged<Module>>(page, 'tutorial/module/?limit=100')).results;
    expect(restored.map((m) => m.id)).toEqual(before.map((m) => m.id));
    await page.setViewportSize({ width: 390, height: 844 });
    await snap(page, 'tutorial-modules-admin-390');
    await context.close();
  });
});
