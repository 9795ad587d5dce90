/**
 * Shared by the options-page component tests: a container to render into, settling after
 * Preact's updates and the page's message round trips, label/button/group queries over a
 * container, and builders for variable definitions.
 */
import { render, type ComponentChild } from 'preact';
import { act } from 'preact/test-utils';
import { expect, vi, type Mock } from 'vitest';
import type { Result } from '../../utils/messages';
import { sessionItem } from '../../utils/storage-items';
import type { VariableDefinition, VariableOption } from '../../utils/types';

/** `sendMessage` as the tests' `vi.mock` of utils/messages makes it. */
export type SendMock = Mock<(type: string, data?: unknown) => Promise<Result<unknown>>>;

/** Lets the page's message round trips and re-renders finish. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await act(() => new Promise<void>((r) => setTimeout(r, 0)));
}

/** Lets work the page put off to the next frame (moving focus) run. */
export async function nextFrame(): Promise<void> {
  await act(() => new Promise<void>((r) => requestAnimationFrame(() => r())));
  await settle();
}

/**
 * Once a section has read what it shows (`#profile`: the profile and its draft; `#preferences`;
 * `#balance`): each is busy until then, showing nothing it has not read.
 */
export async function sectionRead(container: HTMLElement, id: string): Promise<void> {
  await vi.waitFor(() => expect(container.querySelector(`${id}[aria-busy]`)).toBeNull(), { timeout: 10_000 });
}

/** Once the profile section has read the profile and its draft. */
export const profileRead = (container: HTMLElement) => sectionRead(container, '#profile');

/** A fresh element in the document to render a page or section into. */
export function newContainer(): HTMLElement {
  const container = document.createElement('div');
  document.body.append(container);
  return container;
}

export async function mountInto(container: HTMLElement, page: ComponentChild): Promise<void> {
  await act(() => render(page, container));
  await settle();
}

export async function unmountFrom(container: HTMLElement): Promise<void> {
  await act(() => render(null, container));
}

/** Unmounts what the container holds and takes the container out of the document. */
export async function dropContainer(container: HTMLElement): Promise<void> {
  await unmountFrom(container);
  container.remove();
}

/** The control a `<label for>` with exactly this (trimmed) text points at. */
export function byLabel<T extends HTMLElement = HTMLInputElement>(container: ParentNode, text: string): T {
  const label = [...container.querySelectorAll('label')].find((l) => l.textContent?.trim() === text);
  const control = label && container.querySelector<T>(`#${CSS.escape(label.htmlFor)}`);
  if (!control) throw new Error(`no control labelled ${text}`);
  return control;
}

/** The button whose (trimmed) text is exactly this. */
export function button(container: ParentNode, name: string): HTMLButtonElement {
  const found = [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === name);
  if (!found) throw new Error(`no button ${name}`);
  return found;
}

/** The fieldset whose legend is exactly this. */
export function group(container: ParentNode, legend: string): HTMLFieldSetElement {
  const found = [...container.querySelectorAll('fieldset')].find(
    (f) => f.querySelector('legend')?.textContent?.trim() === legend,
  );
  if (!found) throw new Error(`no group ${legend}`);
  return found;
}

/** The radio or checkbox in the group `legend` whose label starts with `text`. */
export function choice(container: ParentNode, legend: string, text: string): HTMLInputElement {
  const fieldset = group(container, legend);
  const label = [...fieldset.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(text));
  return fieldset.querySelector(`#${CSS.escape(label!.htmlFor)}`) as HTMLInputElement;
}

export async function type(input: HTMLInputElement, value: string): Promise<void> {
  await act(() => {
    input.value = value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await settle();
}

export async function click(element: HTMLElement): Promise<void> {
  await act(() => element.click());
  await settle();
}

/** An answer option of a choice question; its name is the text in capitals. */
export function option(id: number, text: string, exclusive = false): VariableOption {
  return { id, name: text.toUpperCase(), text, exclusive };
}

/** A profile with every kind of question: text, date, checkboxes with an exclusive option, radio, read-only. */
export const EVERY_KIND_OF_QUESTION: VariableDefinition[] = [
  question(1, 'FIRST_NAME', 'What is your first name?', 'text', true),
  question(2, 'BIRTH_DATE', 'What is your date of birth?', 'date', true),
  question(3, 'HOBBIES', 'Which hobbies do you enjoy?', 'checkbox', true, [
    option(31, 'Reading'),
    option(35, 'None of these', true),
  ]),
  question(4, 'EMPLOYMENT', 'Employment status', 'radio', true, [option(41, 'Full-time'), option(42, 'Student')]),
  question(6, 'COUNTRY', 'Country of residence', 'text', false),
];

export function question(
  id: number,
  name: string,
  text: string,
  type: string,
  writable: boolean,
  options: VariableDefinition['options'] = [],
): VariableDefinition {
  return { id, name, text, uuid: `u${id}`, type, writable, options };
}

/** The session the page tests run under: the background's draft messages apply to it only. */
export const PAGE_SESSION = 'page-test-session';

/** A connected session in storage, as the background leaves it after connecting. */
export async function asConnected(): Promise<void> {
  await sessionItem.setValue({
    connected: true,
    baseUrl: 'https://panel.example',
    origin: 'https://panel.example',
    tokenHint: 'abcd',
    rejected: false,
    id: PAGE_SESSION,
  });
}

export { draftMessage } from './fake-background';
