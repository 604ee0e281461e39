import { SegmentedMessage } from 'sms-segments-calculator';

export interface Measured {
  /** GSM-7 when every character is in the GSM 03.38 alphabet (with its extension), else UCS-2. */
  encoding: 'GSM-7' | 'UCS-2';
  segments: number;
  characters: number;
}

/** How a text goes over the air: one accented or CJK character turns a whole message to UCS-2. */
export function measure(text: string): Measured {
  const message = new SegmentedMessage(text);
  return {
    encoding: message.encodingName === 'GSM-7' ? 'GSM-7' : 'UCS-2',
    segments: message.segmentsCount,
    characters: message.numberOfCharacters,
  };
}
