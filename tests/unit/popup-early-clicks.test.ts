import { afterEach, expect, it } from 'vitest';
import { holdEarlyClicks, replayEarlyClicks } from '../../components/popup/first-frame/early-clicks';

let root: HTMLElement;
afterEach(() => root.remove());

function painted(label: string): { button: HTMLButtonElement; clicked: string[] } {
  root = document.createElement('div');
  document.body.append(root);
  const button = document.createElement('button');
  button.setAttribute('aria-label', label);
  button.textContent = 'Redeem';
  root.append(button);
  const clicked: string[] = [];
  // What Preact's handler will do once it has taken the button over.
  button.addEventListener('click', () => clicked.push(button.getAttribute('aria-label')!));
  holdEarlyClicks(root);
  return { button, clicked };
}

it('a click held on the first frame is answered on the same button once the app has taken it over', () => {
  const { button, clicked } = painted('Redeem Bluefin Coffee $5 Gift Card');
  button.click();
  expect(clicked).toEqual([]);
  replayEarlyClicks();
  expect(clicked).toEqual(['Redeem Bluefin Coffee $5 Gift Card']);
});

it('a held click is dropped when the app reused its button for another reward, never sent to that one', () => {
  const { button, clicked } = painted('Redeem Bluefin Coffee $5 Gift Card');
  button.click();
  button.setAttribute('aria-label', 'Redeem Northwind Books $10 Gift Card');
  replayEarlyClicks();
  expect(clicked).toEqual([]);
});
