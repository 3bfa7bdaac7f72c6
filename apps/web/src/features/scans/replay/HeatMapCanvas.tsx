// One side of the replay: a rows × cols frame drawn on a canvas of one pixel per cell, scaled up without smoothing.
import { useEffect, useRef } from 'react';
import { paintFrame } from './heatColor.ts';

type HeatMapCanvasProps = { frame: Uint8Array; rows: number; cols: number; label: string; testId?: string };

export function HeatMapCanvas({ frame, rows, cols, label, testId }: HeatMapCanvasProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return;
    const image = context.createImageData(cols, rows);
    paintFrame(frame, image.data);
    context.putImageData(image, 0, 0);
  }, [frame, rows, cols]);
  return (
    <canvas
      ref={ref}
      width={cols}
      height={rows}
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ width: '100%', maxWidth: 320, aspectRatio: `${cols} / ${rows}`, imageRendering: 'pixelated', borderRadius: 8, background: '#0b1020' }}
    />
  );
}
