import { SegmentedMessage } from 'sms-segments-calculator';

export interface Measured {
  /** GSM-7 when every character is in the GSM 03.38 alphabet (with its extension), else UCS-2. */
  encoding: 'GSM-7' | 'UCS-2';
  segments: number;
  characters: number;
}

/**
 * Printable ASCII that is in GSM 03.38's basic table (one septet each): not the extension's
 * characters ([ \ ] ^ { | } ~) nor the backtick, which GSM-7 lacks.
 */
const PLAIN_GSM = /^[ !"#$%&'()*+,\-./0-9:;<=>?@A-Z_a-z]*$/;

/** How a text goes over the air: one accented or CJK character turns a whole message to UCS-2. */
export function measure(text: string): Measured {
  // Most campaign messages are plain: counted directly (the calculator takes half a millisecond a
  // message, which a batch of a thousand would spend holding the event loop).
  if (PLAIN_GSM.test(text)) {
    const characters = text.length;
    return { encoding: 'GSM-7', segments: characters <= 160 ? 1 : Math.ceil(characters / 153), characters };
  }
  const message = new SegmentedMessage(text);
  return {
    encoding: message.encodingName === 'GSM-7' ? 'GSM-7' : 'UCS-2',
    segments: message.segmentsCount,
    characters: message.numberOfCharacters,
  };
}
