// reading_order_views.mjs on the tablet and the laptop.
import { DEVICES } from './reading_order.mjs';
import { viewTests } from './reading_order_views.mjs';

viewTests(DEVICES.filter((d) => d.width >= 1000));
