/**
 * Non-text content blocks: images from inline data, embedded text resources as code blocks,
 * the rest as chips. Nothing is fetched: an image's or resource's URI is only ever a link, and
 * a link is only made for a URI the click handler would accept.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { chip as iconChip, el } from '../dom';
import { classifyHref } from '../links';
import { renderImage, renderResourceText } from './rich';

export function renderAttachments(blocks: readonly ContentBlock[]): HTMLElement {
  const list = el('div', 'attachments');
  for (const block of blocks) list.append(attachment(block));
  return list;
}

const chip = (text: string, iconName = 'file'): HTMLElement => iconChip(iconName, text);

function attachment(block: ContentBlock): HTMLElement {
  switch (block.type) {
    case 'text':
      return chip(block.text.slice(0, 200), 'note');
    case 'image':
      return renderImage(String(block.mimeType), block.data, (text) => chip(text, 'file-media'));
    case 'audio':
      return chip(`audio (${block.mimeType})`, 'unmute');
    case 'resource_link':
      return link(block.uri, block.title ?? block.name, 'link-external');
    case 'resource': {
      const resource = block.resource as { uri: string; text?: unknown; blob?: unknown; mimeType?: unknown };
      const name = link(resource.uri, resource.uri.split('/').pop() || resource.uri, 'file');
      if (typeof resource.text === 'string') return renderResourceText(name, resource.text);
      if (
        typeof resource.blob === 'string' &&
        typeof resource.mimeType === 'string' &&
        resource.mimeType.startsWith('image/')
      ) {
        return renderImage(resource.mimeType, resource.blob, () => name);
      }
      return name;
    }
    default:
      // A block type newer than this webview.
      return chip(`attachment (${String((block as { type?: unknown }).type).slice(0, 40)})`, 'question');
  }
}

/** A link chip, or a plain chip when the URI is not one we open. */
export function link(uri: string, label: string, iconName = 'file'): HTMLElement {
  if (!classifyHref(uri)) return iconChip(iconName, label);
  const anchor = iconChip(iconName, label, 'a');
  anchor.setAttribute('href', uri);
  anchor.title = uri;
  return anchor;
}
