import { vi } from 'vitest';

/*
 * Boxes for the TV navigation's tests: the test DOM has no layout, so each element's box is given as
 * `data-rect="x y width height"`; an element without one spans the boxes of its descendants (a row, a
 * page), or none.
 */

function boxOf(el: Element): DOMRect {
  const given = el.getAttribute('data-rect');
  if (given) {
    const [x = 0, y = 0, width = 0, height = 0] = given.split(/\s+/).map(Number);
    return rect(x, y, width, height);
  }
  const boxes = Array.from(el.children, boxOf).filter((b) => b.width > 0 || b.height > 0);
  if (boxes.length === 0) return rect(0, 0, 0, 0);
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.right));
  const bottom = Math.max(...boxes.map((b) => b.bottom));
  return rect(left, top, right - left, bottom - top);
}

function rect(x: number, y: number, width: number, height: number): DOMRect {
  const box = { x, y, width, height, left: x, top: y, right: x + width, bottom: y + height };
  return { ...box, toJSON: () => box };
}

/** Gives every element its `data-rect` box until the test's mocks are restored. */
export function stubBoxes() {
  return vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    return boxOf(this);
  });
}

/** A key pressed on whatever has focus (or the page), as a remote sends it; returns the event. */
export function press(key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  (document.activeElement ?? document.body).dispatchEvent(event);
  return event;
}

/** What has focus: its `data-name`, else its id, or `body`. */
export function focused(): string {
  const active = document.activeElement;
  if (!active || active === document.body) return 'body';
  return active.getAttribute('data-name') ?? active.id;
}
