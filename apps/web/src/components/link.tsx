import type { ComponentChildren } from 'preact';
import { BASE, navigate } from '../router.js';

/** An ordinary anchor (keyboard, middle-click, copy link) that navigates in-page on a plain click. */
export function Link(props: {
  to: string;
  children: ComponentChildren;
  class?: string;
  current?: boolean;
}) {
  const href = props.to.startsWith(BASE) ? props.to : `${BASE}${props.to}`;
  return (
    <a
      href={href}
      class={props.class}
      aria-current={props.current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {props.children}
    </a>
  );
}
