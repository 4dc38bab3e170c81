/**
 * Content beyond Markdown, still inert: a tool's raw input and output as bounded JSON in a
 * collapsed section, images from inline `data:` only (an allowlisted raster type, valid base64,
 * a size cap; a URI is never fetched), and embedded text resources as capped code blocks.
 */
import { el } from '../dom';
import { boundedJson } from '../json';
import { copyButton } from './codeBlocks';
import { visible } from './visible';

const MAX_RAW_CHARS = 20_000;
const MAX_RESOURCE_CHARS = 20_000;
/** Base64 characters of one image: about 2 MB decoded. */
const MAX_IMAGE_CHARS = 2_800_000;
/** Raster types only: an SVG is a document, and nothing needs one here. */
const IMAGE_TYPES = /^image\/(?:png|jpeg|gif|webp|bmp|avif)$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A tool's `rawInput` or `rawOutput`: closed unless the reader opened it (`open`). */
export function renderRaw(label: string, value: unknown, which: 'input' | 'output', open: boolean): HTMLElement {
  const details = el('details', 'tool-raw copyable');
  details.dataset.raw = which;
  details.open = open;
  details.append(el('summary', 'tool-raw-summary', label));
  const { text, cut } = boundedJson(value, MAX_RAW_CHARS);
  details.append(
    el('pre', 'tool-raw-body copy-source', visible(cut ? `${text}\n…` : text)),
    copyButton(`Copy ${label.toLowerCase()}`),
  );
  return details;
}

/** The `data:` URL of an image worth showing, or why it is not shown. */
export function imageSource(mimeType: unknown, data: unknown): { src: string } | { reason: string } {
  if (typeof mimeType !== 'string' || !IMAGE_TYPES.test(mimeType)) return { reason: 'not shown' };
  if (typeof data !== 'string' || data.length === 0) return { reason: 'no data' };
  if (data.length > MAX_IMAGE_CHARS) return { reason: 'too large to show' };
  if (!BASE64.test(data)) return { reason: 'not valid data' };
  return { src: `data:${mimeType.toLowerCase()};base64,${data}` };
}

export function renderImage(
  mimeType: string,
  data: string | undefined,
  chip: (text: string) => HTMLElement,
): HTMLElement {
  const source = imageSource(mimeType, data);
  if ('reason' in source) return chip(`image (${mimeType.slice(0, 60)}, ${source.reason})`);
  const img = el('img', 'content-image');
  img.alt = `image (${mimeType})`;
  img.decoding = 'async';
  img.src = source.src;
  return img;
}

/** An embedded resource's text as a code block under its name. */
export function renderResourceText(header: HTMLElement, text: string): HTMLElement {
  const box = el('div', 'resource copyable');
  const cut = text.length > MAX_RESOURCE_CHARS;
  box.append(
    header,
    el('pre', 'resource-text copy-source', cut ? `${text.slice(0, MAX_RESOURCE_CHARS)}\n…` : text),
    copyButton('Copy text'),
  );
  return box;
}
