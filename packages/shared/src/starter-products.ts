import type { RegistrationCategory } from './constants.js';

/*
 * The first products a new business may start with (issue 29 point 2): a list Mustard ships, by
 * the kind of business, so signing up needs no third-party service (the spec's sample-data
 * service is gone). The screen names them in the person's language (`register.products.<family>.<code>`);
 * the business's rows keep the English name, which it renames like any product.
 */

export type ProductKind = 'goods' | 'service';

export interface StarterProduct {
  code: string;
  name: string;
  kind: ProductKind;
  unit: string;
}

const goods = (code: string, name: string, unit: string): StarterProduct => ({ code, name, kind: 'goods', unit });
const service = (code: string, name: string, unit: string): StarterProduct => ({ code, name, kind: 'service', unit });

export const STARTER_PRODUCTS = {
  school: [
    goods('exerciseBooks', 'Exercise books', 'piece'),
    goods('pens', 'Pens', 'piece'),
    goods('uniforms', 'Uniforms', 'piece'),
    goods('textbooks', 'Textbooks', 'piece'),
    goods('mathSets', 'Mathematical sets', 'piece'),
    goods('schoolBags', 'School bags', 'piece'),
  ],
  shop: [
    goods('sugar', 'Sugar', 'kg'),
    goods('soap', 'Soap', 'bar'),
    goods('cookingOil', 'Cooking oil', 'litre'),
    goods('rice', 'Rice', 'kg'),
    goods('salt', 'Salt', 'kg'),
    goods('sodas', 'Sodas', 'bottle'),
  ],
  farm: [
    goods('maizeSeed', 'Maize seed', 'kg'),
    goods('fertiliser', 'Fertiliser', 'kg'),
    goods('animalFeed', 'Animal feed', 'kg'),
    goods('milk', 'Milk', 'litre'),
    goods('eggs', 'Eggs', 'tray'),
    goods('coffee', 'Coffee', 'kg'),
  ],
  hospitality: [
    service('rooms', 'Rooms', 'night'),
    service('breakfast', 'Breakfast', 'plate'),
    service('lunch', 'Lunch', 'plate'),
    service('dinner', 'Dinner', 'plate'),
    goods('softDrinks', 'Soft drinks', 'bottle'),
    goods('tea', 'Tea', 'cup'),
  ],
  health: [
    service('consultation', 'Consultation', 'visit'),
    service('laboratoryTest', 'Laboratory test', 'test'),
    goods('paracetamol', 'Paracetamol', 'tablet'),
    goods('bandages', 'Bandages', 'roll'),
    service('admission', 'Admission', 'day'),
    service('malariaTest', 'Malaria test', 'test'),
  ],
  services: [
    service('serviceFee', 'Service fee', 'service'),
    service('monthlyRent', 'Monthly rent', 'month'),
    service('loanApplicationFee', 'Loan application fee', 'application'),
    service('transport', 'Transport', 'trip'),
    service('maintenance', 'Maintenance', 'job'),
    service('training', 'Training', 'session'),
  ],
} as const satisfies Record<string, readonly StarterProduct[]>;

export type StarterFamily = keyof typeof STARTER_PRODUCTS;

/** Which list a registration category chooses from. */
export const STARTER_FAMILY: Record<RegistrationCategory, StarterFamily> = {
  school: 'school',
  retail: 'shop',
  products: 'shop',
  stock: 'shop',
  farm: 'farm',
  hotel: 'hospitality',
  restaurant: 'hospitality',
  hospital: 'health',
  microfinance: 'services',
  'property management': 'services',
  services: 'services',
};

/** The starter products a category offers. */
export function starterProductsOf(category: RegistrationCategory): readonly StarterProduct[] {
  return STARTER_PRODUCTS[STARTER_FAMILY[category]];
}
