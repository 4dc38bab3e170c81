/**
 * Non-text content blocks as chips. Nothing is fetched or decoded: an image shows its type, a
 * resource its name; a link is only made for a URI the click handler would accept.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { el } from '../dom';
import { classifyHref } from '../links';

export function renderAttachments(blocks: readonly ContentBlock[]): HTMLElement {
  const list = el('div', 'attachments');
  for (const block of blocks) list.append(chip(block));
  return list;
}

function chip(block: ContentBlock): HTMLElement {
  switch (block.type) {
    case 'text':
      return el('span', 'chip', block.text.slice(0, 200));
    case 'image':
      return el('span', 'chip', `▣ image (${block.mimeType})`);
    case 'audio':
      return el('span', 'chip', `♪ audio (${block.mimeType})`);
    case 'resource_link':
      return link(block.uri, `↗ ${block.title ?? block.name}`);
    case 'resource':
      return link(block.resource.uri, `▤ ${block.resource.uri.split('/').pop() || block.resource.uri}`);
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
