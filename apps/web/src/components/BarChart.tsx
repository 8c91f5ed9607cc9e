import { Box, Group, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { ticks } from 'd3-array';

export interface Bar {
  label: string;
  value: number;
}

const MARGIN = { top: 24, right: 8, bottom: 28, left: 44 };
const NUMBER = new Intl.NumberFormat('en-US');

/**
 * A bar chart in plain SVG: one series, a value over each bar (readable without hovering on a
 * cheap laptop's touchpad), the whole series as the image's accessible name. Hand-drawn because
 * a charting library costs more to download than the rest of the dashboard.
 */
export function BarChart({ data, height, seriesLabel, testId }: { data: Bar[]; height: number; seriesLabel: string; testId?: string }) {
  const { ref, width } = useElementSize();
  const max = Math.max(0, ...data.map((bar) => bar.value));
  const scale = ticks(0, max || 1, 5);
  const top = Math.max(scale.at(-1) ?? 1, max, 1);
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const band = data.length ? innerWidth / data.length : 0;
  const barWidth = Math.min(56, band * 0.6);
  const y = (value: number) => MARGIN.top + innerHeight - (value / top) * innerHeight;
  const description = `${seriesLabel}: ${data.map((bar) => `${bar.label} ${NUMBER.format(bar.value)}`).join(', ')}`;

  return (
    <Box data-testid={testId}>
      <Group gap={6} mb={4} aria-hidden>
        <Box w={12} h={12} bg="var(--mustard-bar)" />
        <Text size="sm">{seriesLabel}</Text>
      </Group>
      <Box ref={ref} h={height} style={{ '--mustard-bar': 'var(--mantine-color-mustard-7)' }}>
        {width > 0 && (
          <svg width={width} height={height} role="img" aria-label={description}>
            {scale.map((tick) => (
              <g key={tick}>
                <line x1={MARGIN.left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} stroke="var(--mantine-color-default-border)" />
                <text x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={12} fill="var(--mantine-color-dimmed)">
                  {NUMBER.format(tick)}
                </text>
              </g>
            ))}
            {data.map((bar, index) => {
              const centre = MARGIN.left + band * index + band / 2;
              return (
                <g key={bar.label} data-bar={bar.label}>
                  <rect
                    x={centre - barWidth / 2}
                    y={y(bar.value)}
                    width={barWidth}
                    height={y(0) - y(bar.value)}
                    fill="var(--mustard-bar)"
                    rx={2}
                  >
                    <title>{`${bar.label}: ${NUMBER.format(bar.value)}`}</title>
                  </rect>
                  <text x={centre} y={y(bar.value) - 6} textAnchor="middle" fontSize={12} fill="var(--mantine-color-text)">
                    {NUMBER.format(bar.value)}
                  </text>
                  <text x={centre} y={height - MARGIN.bottom + 18} textAnchor="middle" fontSize={12} fill="var(--mantine-color-text)">
                    {bar.label}
                  </text>
                </g>
              );
            })}
          </svg>
        )}
      </Box>
    </Box>
  );
}
