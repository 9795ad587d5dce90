import { useSignal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';
import { answerTarget } from '../../utils/profile-link';

/**
 * `#answer-NAME` (the popup's *Answer now*, a new question's notification, the summary's link on
 * this same page) starts answering at that question once the profile is there. It is followed
 * once: the address loses it, so a reload, or the section remounting for another account, does
 * not start it again.
 */
export function useAnswerLink(ready: boolean, answer: (name: string | null) => void, section: () => Element | null) {
  const target = useRef(answerTarget(location.hash));
  const [followedAt, setFollowedAt] = useState(0);

  useEffect(() => {
    const follow = () => {
      target.current = answerTarget(location.hash);
      if (target.current !== undefined) setFollowedAt(Date.now());
    };
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);

  useEffect(() => {
    if (!ready || target.current === undefined) return;
    const name = target.current;
    target.current = undefined;
    history.replaceState(null, '', location.pathname + location.search);
    answer(name);
    section()?.scrollIntoView?.({ block: 'start' });
  }, [ready, followedAt]);
}

/**
 * Answering one at a time: the questions to ask, from `name` (or the first open question) and
 * then the rest in order, and a new key per start. With none open there is nothing to ask, and
 * `done` runs instead (focus goes to the progress line, which says so).
 */
export function useAnswering(open: readonly string[], done: () => void) {
  const answering = useSignal<{ queue: string[]; key: number } | null>(null);

  function answer(name: string | null) {
    if (!open.length) return done();
    const from = Math.max(0, name === null ? 0 : open.indexOf(name));
    answering.value = { queue: [...open.slice(from), ...open.slice(0, from)], key: (answering.value?.key ?? 0) + 1 };
  }

  function close() {
    answering.value = null;
    done();
  }

  return { answering: answering.value, answer, close };
}
