import { useElementSize } from '@mantine/hooks';

/**
 * A sandboxed preview (a report card, 740 px wide) that fits the width it is given (issue 24
 * point 8): on a phone the page is shown whole, scaled down, instead of cut off at the frame's
 * edge. The frame keeps `height` on screen and shows as much more of the document as the scale
 * allows. Wider than `width`, it is drawn at its own size.
 */
export function FittedFrame({ title, srcDoc, width, height }: { title: string; srcDoc: string; width: number; height: number }) {
  const { ref, width: available } = useElementSize();
  const scale = available > 0 && available < width ? available / width : 1;
  return (
    <div ref={ref} style={{ width: '100%', height, overflow: 'hidden' }}>
      {/* Sandboxed: the preview needs no script, and none of the school's text can run as one. */}
      <iframe
        title={title}
        srcDoc={srcDoc}
        sandbox=""
        data-scale={scale.toFixed(3)}
        style={{
          width: scale < 1 ? width : '100%',
          height: height / scale,
          border: 0,
          transform: scale < 1 ? `scale(${scale})` : undefined,
          transformOrigin: 'top left',
        }}
      />
    </div>
  );
}
