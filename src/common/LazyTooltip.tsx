import type { TooltipProps } from '@mui/material/Tooltip';
import { useForkRef } from '@mui/material/utils';
import {
  cloneElement,
  forwardRef,
  useEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactElement,
  type Ref,
  type SyntheticEvent,
} from 'react';

type ChildProps = Record<string, unknown> & {
  ref?: Ref<HTMLElement> | null;
  onMouseOver?: (e: SyntheticEvent) => void;
  onFocus?: (e: SyntheticEvent) => void;
  onTouchStart?: (e: SyntheticEvent) => void;
  onMouseLeave?: (e: SyntheticEvent) => void;
  onBlur?: (e: SyntheticEvent) => void;
  onPointerDown?: (e: SyntheticEvent) => void;
  onPointerUp?: (e: SyntheticEvent) => void;
};

let real: ComponentType<TooltipProps> | undefined;
const loadReal = () =>
  import('virtual:mui-tooltip').then((m) => {
    real = m.default;
    return real;
  });

/**
 * MUI's Tooltip as the panel uses it (scripts/vite/lazyTooltip.ts puts it in Tooltip's place): until the first
 * hover, focus or touch the child renders alone, named by the title as the real Tooltip names it, and the real
 * Tooltip loads then, opening at once if the pointer or focus is still there. After that it is the real one.
 */
const LazyTooltip = forwardRef<HTMLElement, TooltipProps>(function LazyTooltip(props, ref) {
  const { children, title, describeChild, open, onOpen, onClose } = props;
  const [Real, setReal] = useState(() => real);
  const [wanted, setWanted] = useState(false);
  const [shown, setShown] = useState(false);
  const element = children as ReactElement<ChildProps>;
  // The switch to the real Tooltip mounts the child anew: never between a press and its click (a touch loads the
  // code, and the click that follows would land on an element gone), so a switch due while pressed waits.
  const pressed = useRef(false);
  // Opened by the pointer before the switch: the remounted child never hears that pointer leave (the browser's
  // hover still names the node that is gone), so until the pointer moves again over it, a move elsewhere closes.
  const byPointer = useRef(false);
  const node = useRef<HTMLElement | null>(null);
  const realRef = useForkRef(ref, node);
  const childRef = useForkRef(element.props.ref, ref, node);
  const pending = useRef<ComponentType<TooltipProps> | undefined>(undefined);
  const release = () =>
    setTimeout(() => {
      pressed.current = false;
      const loaded = pending.current;
      pending.current = undefined;
      if (loaded) setReal(() => loaded);
    }, 0);

  useEffect(() => {
    if (!wanted || Real) return;
    let live = true;
    loadReal().then(
      (loaded) => {
        if (!live) return;
        if (pressed.current) pending.current = loaded;
        else setReal(() => loaded);
      },
      () => undefined, // no tooltip then: the child keeps its name
    );
    return () => {
      live = false;
    };
  }, [wanted, Real]);

  useEffect(() => {
    if (!Real || !byPointer.current) return;
    byPointer.current = false;
    const moved = (e: PointerEvent) => {
      const at = e.target instanceof Element ? e.target : null;
      document.removeEventListener('pointermove', moved, true);
      if (at && (node.current?.contains(at) || at.closest('.MuiTooltip-popper'))) return;
      setShown(false);
    };
    document.addEventListener('pointermove', moved, true);
    return () => document.removeEventListener('pointermove', moved, true);
  }, [Real]);

  if (Real)
    return (
      <Real
        {...props}
        ref={realRef}
        open={open ?? shown}
        onOpen={(e) => {
          setShown(true);
          onOpen?.(e);
        }}
        onClose={(e) => {
          setShown(false);
          onClose?.(e);
        }}
      />
    );

  const child = element.props;
  const enter = (e: SyntheticEvent) => {
    setWanted(true);
    setShown(true);
    onOpen?.(e);
  };
  const leave = (e: SyntheticEvent) => {
    byPointer.current = false;
    setShown(false);
    onClose?.(e);
  };
  const name = typeof title === 'string' ? title : undefined;
  return cloneElement(element, {
    ...(describeChild ? { title: name } : { 'aria-label': name }),
    ...child,
    ref: childRef,
    onMouseOver: (e: SyntheticEvent) => {
      child.onMouseOver?.(e);
      if (props.disableHoverListener) return;
      byPointer.current = true;
      enter(e);
    },
    onFocus: (e: SyntheticEvent) => {
      child.onFocus?.(e);
      if (!props.disableFocusListener) enter(e);
    },
    onTouchStart: (e: SyntheticEvent) => {
      child.onTouchStart?.(e);
      if (!props.disableTouchListener) setWanted(true);
    },
    onPointerDown: (e: SyntheticEvent) => {
      child.onPointerDown?.(e);
      pressed.current = true;
    },
    // After the click that follows (a task later): then a switch that waited is made.
    onPointerUp: (e: SyntheticEvent) => {
      child.onPointerUp?.(e);
      release();
    },
    onMouseLeave: (e: SyntheticEvent) => {
      child.onMouseLeave?.(e);
      if (pressed.current) release();
      leave(e);
    },
    onBlur: (e: SyntheticEvent) => {
      child.onBlur?.(e);
      leave(e);
    },
  });
});

export default LazyTooltip;
