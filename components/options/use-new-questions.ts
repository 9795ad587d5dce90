import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { sendMessage } from '../../utils/messages';
import { questionsItem } from '../../utils/storage-items';
import { useStorageItem } from '../../utils/use-storage-item';
import { ask } from './ask';

export interface NewQuestions {
  /** Whether the panel added this question since the panelist last looked. */
  isNew(name: string): boolean;
  /** The question was on screen: it keeps its tag on this page, and is no longer new the next time. */
  seen(name: string): void;
}

/** The background's record of new questions, for this account only. */
export function useNewQuestions(account: string): NewQuestions {
  const record = useStorageItem(questionsItem);
  // Seen on this page: the tag stays while the page is open, so it is not gone before it is read.
  const seenHere = useRef(new Set<string>());
  const fresh = new Set(record.value?.account === account ? record.value.fresh.map((q) => q.name) : []);
  return {
    isNew: (name) => fresh.has(name) || seenHere.current.has(name),
    seen(name) {
      if (!fresh.has(name) || seenHere.current.has(name)) return;
      seenHere.current.add(name);
      void ask(() => sendMessage('seeQuestions', { account, names: [name] }));
    },
  };
}

/**
 * Calls `onSeen` once the element has been at least half in view (right away where the browser
 * cannot tell). Only while `active`.
 */
export function useSeen(ref: RefObject<Element | null>, active: boolean, onSeen: (() => void) | undefined): void {
  const callback = useRef(onSeen);
  callback.current = onSeen;
  useEffect(() => {
    const element = ref.current;
    if (!active || !element) return;
    if (typeof IntersectionObserver !== 'function') {
      callback.current?.();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        callback.current?.();
      },
      { threshold: 0.5 },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [active]);
}
