/**
 * Non-text content blocks: images from inline data, embedded text resources as code blocks,
 * the rest as chips. Nothing is fetched: an image's or resource's URI is only ever a link, and
 * a link is only made for a URI the click handler would accept.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { el } from '../dom';
import { classifyHref } from '../links';
import { renderImage, renderResourceText } from './rich';

export function renderAttachments(blocks: readonly ContentBlock[]): HTMLElement {
  const list = el('div', 'attachments');
  for (const block of blocks) list.append(attachment(block));
  return list;
}

const chip = (text: string): HTMLElement => el('span', 'chip', text);

function attachment(block: ContentBlock): HTMLElement {
  switch (block.type) {
    case 'text':
      return chip(block.text.slice(0, 200));
    case 'image':
      return renderImage(String(block.mimeType), block.data, (text) => chip(`▣ ${text}`));
    case 'audio':
      return chip(`♪ audio (${block.mimeType})`);
    case 'resource_link':
      return link(block.uri, `↗ ${block.title ?? block.name}`);
    case 'resource': {
      const resource = block.resource as { uri: string; text?: unknown; blob?: unknown; mimeType?: unknown };
      const name = link(resource.uri, `▤ ${resource.uri.split('/').pop() || resource.uri}`);
      if (typeof resource.text === 'string') return renderResourceText(name, resource.text);
      if (typeof resource.blob === 'string' && typeof resource.mimeType === 'string' && resource.mimeType.startsWith('image/')) {
        return renderImage(resource.mimeType, resource.blob, () => name);
      }
      return name;
    }
    default:
      // A block type newer than this webview.
      return chip(`attachment (${String((block as { type?: unknown }).type).slice(0, 40)})`);
  }
}

/** A link chip, or a plain chip when the URI is not one we open. */
export function link(uri: string, label: string): HTMLElement {
  if (!classifyHref(uri)) return el('span', 'chip', label);
  const anchor = el('a', 'chip', label);
  anchor.setAttribute('href', uri);
  anchor.title = uri;
  return anchor;
}
